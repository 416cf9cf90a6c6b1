import MessageBus from "../messages/MessageBus";
import { Popover } from "../types/Popover";
declare class PopoverApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    open(popover: Popover): Promise<void>;
    close(id: string): Promise<void>;
    getWidth(id: string): Promise<number | undefined>;
    setWidth(id: string, width: number): Promise<void>;
    getHeight(id: string): Promise<number | undefined>;
    setHeight(id: string, height: number): Promise<void>;
}
export default PopoverApi;
