export * from './args-digest';
export * from './error-slug';
export * from './latency-histogram';
export * from './trace-recorder';
