// The part of Node's "events" module that the Owlbear SDK uses (an emitter with on, off, once,
// emit and setMaxListeners). Node's own package is published only as CommonJS, which a browser
// cannot import, so the import map points "events" here (docs/owlbear.md).

export class EventEmitter {
  #listeners = new Map();

  on(name, listener) {
    this.#listeners.set(name, [...(this.#listeners.get(name) ?? []), listener]);
    return this;
  }

  addListener(name, listener) {
    return this.on(name, listener);
  }

  off(name, listener) {
    const left = (this.#listeners.get(name) ?? []).filter((each) => each !== listener
                                                          && each.listener !== listener);
    if (left.length) this.#listeners.set(name, left);
    else this.#listeners.delete(name);
    return this;
  }

  removeListener(name, listener) {
    return this.off(name, listener);
  }

  once(name, listener) {
    const once = (...args) => {
      this.off(name, once);
      listener.apply(this, args);
    };
    once.listener = listener;
    return this.on(name, once);
  }

  /** Each listener registered when the event came runs, in order; true if there was one. */
  emit(name, ...args) {
    const listeners = this.#listeners.get(name) ?? [];
    for (const listener of listeners) listener.apply(this, args);
    return listeners.length > 0;
  }

  /** Node warns past a number of listeners; there is nothing to warn about here. */
  setMaxListeners() {
    return this;
  }
}

export default EventEmitter;
