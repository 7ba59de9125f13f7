// The engine lives in plugin-host/schema (one engine for `search`, the app's schema patterns and `hplugin run`).
export {
  compileLinearRegex,
  REGEX_MAX_PROGRAM,
  REGEX_MAX_REPEAT,
  type LinearRegex,
} from '../../../../plugin-host/schema';
