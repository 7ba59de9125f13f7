import { contentStoreContract } from './content-store-suite';
import { createMemoryContentStore } from './memory-content-store';

contentStoreContract('memory store', createMemoryContentStore);
