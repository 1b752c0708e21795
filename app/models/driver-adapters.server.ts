/**
 * The driver adapters Prisma's client is made with, each telling which connected adapter (libSQL
 * connection or node-postgres pool) the client's engine uses, so that `driverQuery` in db.server.ts
 * can send a statement to the same connection without the engine.
 */
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";

/** The driver adapter a client's engine connected (its connection or pool), once it has. */
export type SqlDriver =
  Awaited<ReturnType<PrismaPg["connect"]>> | Awaited<ReturnType<PrismaLibSQL["connect"]>>;
export interface ConnectedDriver {
  current: SqlDriver | null;
}

/** PrismaPg that tells `connected` which adapter the client's engine is using. */
export class PostgresAdapter extends PrismaPg {
  #connected: ConnectedDriver;
  constructor(config: ConstructorParameters<typeof PrismaPg>[0], connected: ConnectedDriver) {
    super(config);
    this.#connected = connected;
  }
  override async connect() {
    return heldWhileConnected(await super.connect(), this.#connected);
  }
}

/** Records `driver` in `connected` until it is disposed (the client's `$disconnect`). */
export function heldWhileConnected<D extends SqlDriver>(driver: D, connected: ConnectedDriver): D {
  const dispose = driver.dispose.bind(driver);
  driver.dispose = () => {
    if (connected.current === driver) connected.current = null;
    return dispose();
  };
  connected.current = driver;
  return driver;
}
