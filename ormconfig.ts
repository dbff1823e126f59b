// The data source the TypeORM CLI uses (`npx typeorm -d dist/ormconfig.js migration:generate ...`).
// It is built from the same options as the application's, so both always agree.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source-options';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to use the TypeORM CLI');

export default new DataSource(dataSourceOptions(url));
