// Node-only face of web/core (headless runner, Node implementations of the ports). Never imported by the browser.
export * from '../../plugin-host/node';
export * from './sessions/node';
export * from './headless';
export * from './modules/node';
export * from './shell/node';
