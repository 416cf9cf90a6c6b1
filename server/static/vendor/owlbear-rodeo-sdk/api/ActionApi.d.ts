import MessageBus from "../messages/MessageBus";
declare class ActionApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    getWidth(): Promise<number | undefined>;
    setWidth(width: number): Promise<void>;
    getHeight(): Promise<number | undefined>;
    setHeight(height: number): Promise<void>;
    getBadgeText(): Promise<string | undefined>;
    setBadgeText(badgeText?: string): Promise<void>;
    getBadgeBackgroundColor(): Promise<string | undefined>;
    setBadgeBackgroundColor(badgeBackgroundColor: string): Promise<void>;
    getIcon(): Promise<string>;
    setIcon(icon: string): Promise<void>;
    getTitle(): Promise<string>;
    setTitle(title: string): Promise<void>;
    isOpen(): Promise<boolean>;
    open(): Promise<void>;
    close(): Promise<void>;
    onOpenChange(callback: (isOpen: boolean) => void): () => void;
}
export default ActionApi;
