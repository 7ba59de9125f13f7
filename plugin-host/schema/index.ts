// JSON-schema argument checks and the linear-time regex engine behind them. They live in the bottom layer so that
// the app (web/core re-exports them) and `hplugin run` check a tool's arguments with one engine: a schema `pattern`
// from a plugin never reaches JavaScript's backtracking RegExp in either.
export { compileSchema, isObjectSchema, type SchemaCheck } from './compile-schema';
export { mapSchemaPatterns, schemaPatterns, planPatterns, type PatternPlan } from './validate-patterns';
export { compileLinearRegex, REGEX_MAX_PROGRAM, REGEX_MAX_REPEAT, type LinearRegex } from './linear-regex';
