// Public face of the budget module (seed 000 §7): configuration, the conservative estimator with usage anchors,
// and the context_budget hook handler.
export {
  BUDGET_DEFAULTS,
  REMOVED_TOKENIZERS,
  parseBudgetConfig,
  budgetTrigger,
  requestMaxTokens,
  toolBudget,
} from './budget-config';
export {
  createBudgetModule,
  type BudgetEndpoint,
  type BudgetInput,
  type BudgetModule,
  type BudgetModuleOptions,
  type BudgetVerdict,
} from './budget-module';
export { endpointHash, estimateMessages, estimateTools, historyChain, wireView } from './estimate';
export { budgetModulesOn, checkProfileConfig } from './profile-config';
