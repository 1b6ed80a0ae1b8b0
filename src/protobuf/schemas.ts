/**
 * The `.proto` files of the protobuf bodies (`src/protobuf/schemas/`, read from the source tree at
 * start as the dashboard's web files are), loaded into one protobufjs root. Field names keep their
 * JSON spelling (`keepCase`), so a message's fields are the JSON body's keys.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const SCHEMA_DIR = join(PACKAGE_ROOT, 'src', 'protobuf', 'schemas');

export interface SchemaFile {
  name: string;
  text: string;
}

/** Every `.proto` file of the schema folder, by name. */
export function readSchemaFiles(): SchemaFile[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.proto'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(SCHEMA_DIR, name), 'utf8') }));
}

/** All schemas in one resolved root (`google/protobuf/*` imports come from protobufjs' bundled copies). */
export function loadSchemas(files: readonly SchemaFile[]): protobuf.Root {
  const root = new protobuf.Root();
  root.loadSync(
    files.map((file) => join(SCHEMA_DIR, file.name)),
    { keepCase: true },
  );
  root.resolveAll();
  return root;
}
