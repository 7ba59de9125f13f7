// The schema check lives in plugin-host/schema so that `hplugin run` uses the same linear-time pattern engine as
// the app (packager may import only plugin-host); web/core keeps this path for its callers.
export { compileSchema, isObjectSchema, type SchemaCheck } from '../../../plugin-host/schema';
