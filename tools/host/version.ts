import pkg from '../../package.json';

export const HOST_VERSION: string = pkg.version;
