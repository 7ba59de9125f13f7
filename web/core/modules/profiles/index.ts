export {
  DEFAULT_SELECTION,
  MODULE_NAMES,
  PROFILE_MODULES,
  PROFILE_NAMES,
  enabledModules,
  isModuleName,
  validateProfileSelection,
  type ModuleName,
  type ProfileName,
  type ProfileSelection,
} from './profiles';
export {
  MAX_EXEC_ARGS,
  MAX_EXEC_ARG_CHARS,
  planModules,
  validateAppBindings,
  validateBindings,
  type BindingKey,
  type Bindings,
  type ModulePlan,
  type WorkerBinding,
} from './bindings';
export { BUILTIN_TOOL_NAMES, MODULE_TOOL_NAMES, checkExternalToolName } from './tool-names';
export { approvalUnderProfile, OFFERED_MODULES, wireProtocol, withWireProtocol } from './module-effects';
export {
  boundModuleEntries,
  MODULE_HOOK_EVENTS,
  type BoundEntries,
  type BoundHook,
  type BoundTool,
} from './bound-modules';
