// Front door of sittings/: sittings while they run: overrides, accommodations, extra time, deadline sweeps.
// What other folders may use; nothing else of this folder is imported from outside.
export { meRoute } from './routes';
export { standingAccommodations } from './service';
export { recordSweep, runSweep } from './sweeps';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadSweeps = () => import('./sweeps');
