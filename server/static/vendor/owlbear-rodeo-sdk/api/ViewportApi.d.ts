import MessageBus from "../messages/MessageBus";
import { BoundingBox } from "../types";
import { Vector2 } from "../types/Vector2";
import { ViewportTransform } from "../types/ViewportTransform";
declare class ViewportApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    reset(): Promise<ViewportTransform>;
    animateTo(transform: ViewportTransform): Promise<void>;
    animateToBounds(bounds: BoundingBox): Promise<void>;
    getPosition(): Promise<Vector2>;
    setPosition(position: Vector2): Promise<void>;
    getScale(): Promise<number>;
    setScale(scale: number): Promise<void>;
    getWidth(): Promise<number>;
    getHeight(): Promise<number>;
    transformPoint(point: Vector2): Promise<Vector2>;
    inverseTransformPoint(point: Vector2): Promise<Vector2>;
}
export default ViewportApi;
