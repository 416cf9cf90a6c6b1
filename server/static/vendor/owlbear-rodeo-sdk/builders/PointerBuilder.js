import { GenericItemBuilder } from "./GenericItemBuilder";
export class PointerBuilder extends GenericItemBuilder {
    constructor(player) {
        super(player);
        this._color = "black";
        this._radius = 20;
        this._item.layer = "POINTER";
        this._item.name = "Pointer";
    }
    color(color) {
        this._color = color;
        return this.self();
    }
    radius(radius) {
        this._radius = radius;
        return this.self();
    }
    build() {
        return Object.assign(Object.assign({}, this._item), { type: "POINTER", color: this._color, radius: this._radius });
    }
}
