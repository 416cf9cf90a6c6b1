import MessageBus from "../messages/MessageBus";
import { Theme } from "../types/Theme";
declare class ThemeApi {
    private messageBus;
    constructor(messageBus: MessageBus);
    getTheme(): Promise<Theme>;
    onChange(callback: (theme: Theme) => void): () => void;
}
export default ThemeApi;
