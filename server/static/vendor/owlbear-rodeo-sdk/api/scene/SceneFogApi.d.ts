import MessageBus from "../../messages/MessageBus";
import { Fog } from "../../types/Fog";
declare class SceneFogApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    getColor(): Promise<string>;
    setColor(color: string): Promise<void>;
    getStrokeWidth(): Promise<number>;
    setStrokeWidth(strokeWidth: number): Promise<void>;
    getFilled(): Promise<boolean>;
    setFilled(filled: boolean): Promise<void>;
    onChange(callback: (fog: Fog) => void): () => void;
}
export default SceneFogApi;
