// Front door of platform/: logs, backend faults and deadlines, the request scope: what the platform gives every request.
// What other folders may use; nothing else of this folder is imported from outside.
export { AnsweredAtDeadline, beginCall, endCall, watchRequest } from './backendDeadline';
export type { BackendWatch, Call, DeadlineAnswer } from './backendDeadline';
export { isBackendFault, isContention, isTokenProblem } from './backendFaults';
export { deferBodyErrors, deferFrameworkBodyErrors } from './frameworkBodyParser';
export type { DeferredBodyError, WithDeferredBodyError } from './frameworkBodyParser';
export { errorText, log } from './log';
export {
  currentCost,
  currentRequestId,
  currentWatch,
  forgetInRequest,
  offTheDeadline,
  readOncePerRequest,
  runInRequestScope,
} from './requestScope';
