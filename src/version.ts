/** Service and interface version (SPEC.md Versioning). */
export const SERVICE_VERSION = '0.1.0';
