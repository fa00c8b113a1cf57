/**
 * `electron-builder.yml` against the JSON schema electron-builder itself ships, plus the
 * choices the schema cannot know matter: the fuses, native addons outside the asar, and no
 * in-place rebuild of node_modules (it would break the plain-Node build the CLI and tests use).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv from 'ajv';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const config = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const schemaFile = require.resolve('app-builder-lib/scheme.json', { paths: [path.dirname(require.resolve('electron-builder/package.json'))] });
const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as Record<string, unknown>);

describe('electron-builder.yml', () => {
  it('fits the schema shipped inside electron-builder', () => {
    const valid = validate(config);
    expect(validate.errors ?? [], ajv.errorsText(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check is real: it refuses a misspelt key', () => {
    expect(validate({ ...config, electronFuses: { runAsNod: false } })).toBe(false);
    expect(validate({ ...config, asarUnpak: [] })).toBe(false);
  });

  it('sets the fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('names the app and its installers', () => {
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.productName).toBe('Layover Desk');
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.mac as { target: string[] }).target).toEqual(['dmg']);
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
  });

  it('keeps native addons out of the asar and node_modules as it is', () => {
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.files).toEqual(expect.arrayContaining(['dist/**', 'package.json', 'build/electron-native/**']));
    expect(config.npmRebuild).toBe(false);
  });

  it('matches package.json: the main script and the bin', () => {
    expect(pkg.main).toBe('dist/main/electron/main.js');
    expect(pkg.bin).toEqual({ 'layover-desk': 'bin/layover-desk.js' });
    // The Electron download stays off, so `npm ci` works where it cannot be fetched.
    expect((pkg.allowScripts as Record<string, boolean>).electron).toBe(false);
    expect(JSON.stringify(pkg.scripts)).not.toMatch(/postinstall|electron-rebuild|install-app-deps/);
  });
});
