// Front door of admin/: the administrators' pages, loaded when first opened.
// What other folders may use; nothing else of this folder is imported from outside.
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadAdminApp = () => import('./AdminApp');
