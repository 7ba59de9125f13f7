// Operation plans of a provider's prepare (seed 003 附加操作合约), for adapters that have `prepareStep` (custom
// workers behind the bridge): the plan's operation runs under the executor's rules and the step's budget (8 within
// 180 s, 16 MiB, never retried), then prepare is called again with `operation_result` and the plan's `state`, until
// it answers with the model request. Used only under provider_operations: true; without it a plan is refused
// (E_PROVIDER_OPERATIONS_OFF, the adapter's plain prepare). A failed operation fails the step: nothing is retried.
import type { PreparedRequest, PrepareInput, ProviderAdapter } from '../providers';
import { newBudget, runOperation, type OperationPorts } from './operations';

export function withOperationPlans(adapter: ProviderAdapter, ports: Omit<OperationPorts, 'baseUrl'>): ProviderAdapter {
  if (!adapter.prepareStep) return adapter;
  const step = adapter.prepareStep.bind(adapter);
  return {
    ...adapter,
    async prepare(input: PrepareInput): Promise<PreparedRequest> {
      const budget = newBudget();
      let answer = await step(input);
      // Ends: the budget refuses the 9th operation (E_PROVIDER_OPERATION_LIMIT), which fails the step.
      while ('operation' in answer) {
        const result = await runOperation(answer.operation, { ...ports, baseUrl: input.base_url }, budget);
        answer = await step({ ...input, operation_result: result, state: answer.state });
      }
      return answer;
    },
  };
}
