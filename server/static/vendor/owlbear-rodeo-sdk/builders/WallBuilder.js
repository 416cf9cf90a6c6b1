import { GenericItemBuilder } from "./GenericItemBuilder";
export class WallBuilder extends GenericItemBuilder {
    constructor(player) {
        super(player);
        this._points = [];
        this._doubleSided = true;
        this._blocking = true;
        this._item.name = "Wall";
        this._item.layer = "FOG";
        this._item.zIndex = 0;
        this._item.disableAutoZIndex = true;
    }
    points(points) {
        this._points = points;
        return this.self();
    }
    doubleSided(doubleSided) {
        this._doubleSided = doubleSided;
        return this.self();
    }
    blocking(blocking) {
        this._blocking = blocking;
        return this.self();
    }
    build() {
        return Object.assign(Object.assign({}, this._item), { type: "WALL", points: this._points, doubleSided: this._doubleSided, blocking: this._blocking });
    }
}
