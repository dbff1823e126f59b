/** Where the database is and who runs it; decided in main before the app is built. */
export interface DatabaseRuntime {
  url: string;
  mode: 'embedded' | 'external';
}

export const DATABASE_RUNTIME = Symbol('DATABASE_RUNTIME');
