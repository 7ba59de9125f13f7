// Public face of web/core: the framework-free agent core shared by the PWA, the headless `i` command and tests.
export * from './errors';
export * from './fs';
export * from './storage';
export * from './workspaces';
export * from './settings';
export * from './agent';
export * from './hooks';
export * from './approval';
export * from './sessions';
export * from './providers';
export * from './transport';
export * from './config';
export * from './util';
export * from './tools/builtin';
export * from './modules';
export * from './context';
export * from './archive';
