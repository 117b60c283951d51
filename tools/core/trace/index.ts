export * from './args-digest';
export * from './argument-text';
export * from './error-slug';
export * from './error-text';
export * from './latency-histogram';
export * from './trace-recorder';
