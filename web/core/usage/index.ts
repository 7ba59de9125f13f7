// Public face of web/core/usage (issue 15): what a turn cost and how full the context is. Pure functions over the
// shapes in ./types.ts, shared by the agent Worker, headless i and the UI: prices and cost, session/workspace
// totals. (The context meter and the `/context` breakdown are the agent's: web/core/agent.)
export type {
  CompactionInfo,
  ContextBreakdown,
  ContextPartKind,
  ContextSize,
  ModelPrice,
  PriceTable,
  StepUsage,
  UsageTotals,
} from '../contracts';
export {
  MAX_PRICES,
  MAX_PRICE_PER_MILLION,
  checkPriceTable,
  costOf,
  isIsoDate,
  mergePrices,
  parsePriceTable,
  priceFor,
  withPrice,
} from './prices';
export { PRICE_PRESETS, pricePresetFor, type PricePreset } from './price-presets';
export { EMPTY_TOTALS, addTotals, cacheHitRatio, isEstimated, usageTotals } from './totals';
