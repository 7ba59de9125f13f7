// Public face of web/core/smoke: the one smoke policy (seed 000 §10) shared by the app's Test connection and
// headless `i smoke`, the run that applies it, and the app's statistics record.
export {
  SMOKE_CACHE_CONFIG,
  SMOKE_MAX_OUTPUT_CAP,
  SMOKE_NAMESPACE,
  SMOKE_OUTPUT_CAP,
  SMOKE_PROMPT,
  SMOKE_STATS_FILE,
  smokeOutputCap,
  smokeRequestInput,
  smokeToolCallRefusal,
  type SmokeModel,
  type SmokeVariant,
} from './smoke-policy';
export { runSmoke, testConnection, type ConnectionReport, type ConnectionTarget, type SmokeOptions } from './run-smoke';
export { appSmokeStats, SMOKE_STATS_RECORD } from './app-smoke-stats';
