// Front door of lti/: an LTI launch landing and the deep-linking picker.
// What other folders may use; nothing else of this folder is imported from outside.
export { DeepLinkPicker } from './DeepLinkPicker';
export { LtiLanding } from './LtiLanding';
