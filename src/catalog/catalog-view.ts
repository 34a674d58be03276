/**
 * The catalog as the commands that describe it see it (`CatalogView`): the commands, their portals and
 * places, schemas, examples and doc anchors, and name resolution. Built here, above the catalog, and
 * handed to those commands through their context, so the system capability imports no catalog.
 */

import type { CatalogView } from "../commands/registry";
import { COMMANDS } from "./catalog";
import {
  argsSchemaOf,
  docRefOf,
  exampleArgsOf,
  exampleCallOf,
  failUnknownCommand,
  resolveCommand,
  unpluggedPortals,
} from "./command-facts";
import { allPortals, placeOf, portals } from "./portals";

export const CATALOG_VIEW: CatalogView = {
  commands: COMMANDS,
  resolve: resolveCommand,
  failUnknown: failUnknownCommand,
  portals,
  allPortals,
  unpluggedPortals,
  placeOf,
  argsSchemaOf,
  exampleArgsOf,
  exampleCallOf,
  docRefOf,
};
