/** @type {import('jest').Config} */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    {
      // The browser apps' own logic (no DOM needed: what needs one is a browser test).
      displayName: 'web',
      testEnvironment: 'node',
      transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'web/tsconfig.spec.json' }] },
      testMatch: ['<rootDir>/web/**/*.spec.ts'],
    },
    {
      // The whole app over HTTP and Socket.IO, and in a real browser (test/browser, Chromium).
      displayName: 'e2e',
      testEnvironment: 'node',
      transform,
      testMatch: [
        '<rootDir>/test/e2e/**/*.e2e-spec.ts',
        '<rootDir>/test/browser/**/*.browser-spec.ts',
      ],
      globalSetup: '<rootDir>/test/utils/global-setup.ts',
      globalTeardown: '<rootDir>/test/utils/global-teardown.ts',
    },
  ],
  // Each file's time, for the slowest-suites table `.ci/run` prints (SUITE_TIMES_FILE).
  reporters: ['default', '<rootDir>/test/utils/suite-times-reporter.cjs'],
  maxWorkers: 2,
  testTimeout: 60000,
};
