// Front door of grading/: essay grading: the queue and a grade.
// What other folders may use; nothing else of this folder is imported from outside.
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
