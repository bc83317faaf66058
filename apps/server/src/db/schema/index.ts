export * from './account';
export * from './platform';
export * from './portal';
export * from './shell';
