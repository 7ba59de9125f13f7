export * from './limits';
export { webFetchTool, type WebFetchBackend } from './web-fetch-tool';
export { validateWebConfig, validateWebSearchConfig, type WebConfig, type WebSearchConfig } from './web-config';
export { pick, webSearchTool, type GetSecret, type WebSearchDeps } from './web-search-tool';
