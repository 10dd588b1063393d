// Front door of sittingRules/: the pure sitting rules: deadlines, access codes, class overrides, delivery settings.
// What other folders may use; nothing else of this folder is imported from outside.
export { accessCodeMatches, hasAccessCode } from './accessCode';
export type { AccessCodeHash } from './accessCode';
export { classOverridesFor, effectiveOverride } from './classOverrides';
export {
  cooldownEnds,
  effective,
  expiresAtMs,
  extensionMinutes,
  reviewReleased,
  startWindow,
  windowRefusal,
} from './deadline';
export type { Accommodation, OverrideValues } from './deadline';
export {
  AccessCodeInput,
  PatchTestBody,
  authorDeliveryReplyFields,
  deliveryFields,
  deliveryReplyFields,
  refineWindow,
} from './deliverySchemas';
export type { PatchTestInput } from './deliverySchemas';
