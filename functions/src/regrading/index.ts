// Front door of regrading/: regrades of a published version's key.
// What other folders may use; nothing else of this folder is imported from outside.
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
