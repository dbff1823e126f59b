import { Global, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig } from './app-config';
import { Environment, ENVIRONMENT_KEYS } from './environment';
import { loadEnvironment } from './load-environment';

/**
 * `@nestjs/config` validated by our schema (see environment.ts), exposed as the typed AppConfig.
 * main.ts has already loaded `.env` and failed fast on a bad value before the app is built.
 */
@Global()
@Module({
  imports: [ConfigModule.forRoot({ ignoreEnvFile: true, cache: true, validate: loadEnvironment })],
  providers: [
    {
      provide: AppConfig,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => {
        const env = new Environment();
        for (const key of ENVIRONMENT_KEYS) {
          const value: unknown = config.get(key);
          if (value !== undefined) Object.assign(env, { [key]: value });
        }
        return new AppConfig(env);
      },
    },
  ],
  exports: [AppConfig],
})
export class AppConfigModule {}
