export * from './account';
export * from './accounts';
export * from './platform';
export * from './portal';
export * from './shell';
