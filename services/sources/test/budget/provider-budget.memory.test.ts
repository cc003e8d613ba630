/**
 * The ProviderBudgetStore contract on the embedded runtime's store (one process: its two
 * "replicas" are the same store).
 */
import { MemoryProviderBudgetStore } from '../../src/providers/budget/provider-budget.memory';
import { providerBudgetContract } from './provider-budget.contract';

const store = new MemoryProviderBudgetStore();
providerBudgetContract('memory', async () => ({ open: async () => store }));
