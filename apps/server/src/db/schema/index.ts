export * from './account';
export * from './accounts';
export * from './credit';
export * from './engine';
export * from './files';
export * from './platform';
export * from './portal';
export * from './shell';
