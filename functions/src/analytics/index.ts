// Front door of analytics/: a test's figures: running sums kept with each score change, their statistics, the results CSV.
// What other folders may use; nothing else of this folder is imported from outside.
export { recordScoreChange, recordScoreChanges } from './store';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
