/** Indexed content, per account and workspace: workspaces never see each other's items. */

export type ContentKind = "products" | "posts";

export type StoredItem = Record<string, unknown> & { id: string };

export interface Workspace {
  account: string;
  id: string;
  products: Map<string, StoredItem>;
  posts: Map<string, StoredItem>;
}

export class ContentStore {
  readonly #workspaces = new Map<string, Workspace>();

  workspace(account: string, id: string): Workspace {
    const key = `${account}\u0000${id}`;
    let workspace = this.#workspaces.get(key);
    if (!workspace) {
      workspace = { account, id, products: new Map(), posts: new Map() };
      this.#workspaces.set(key, workspace);
    }
    return workspace;
  }

  find(account: string, id: string): Workspace | undefined {
    return this.#workspaces.get(`${account}\u0000${id}`);
  }

  /** The workspaces a read covers: the given one, or all of the account's when none is given. */
  scope(account: string, id: string | undefined): Workspace[] {
    if (id !== undefined) {
      const workspace = this.find(account, id);
      return workspace ? [workspace] : [];
    }
    return this.all().filter((workspace) => workspace.account === account);
  }

  all(): Workspace[] {
    return [...this.#workspaces.values()];
  }

  clear(): void {
    this.#workspaces.clear();
  }
}
