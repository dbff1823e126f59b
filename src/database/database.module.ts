import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { DATABASE_RUNTIME, type DatabaseRuntime } from './database-runtime';

/**
 * The application's PostgreSQL: TypeORM's DataSource and where the server runs (DATABASE_RUNTIME).
 * Global, as infrastructure: every repository takes the DataSource (docs/architecture.md,
 * "Global modules").
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(database: DatabaseRuntime, extra: Partial<DataSourceOptions> = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot(dataSourceOptions(database.url, extra))],
      providers: [{ provide: DATABASE_RUNTIME, useValue: database }],
      exports: [DATABASE_RUNTIME],
    };
  }
}
