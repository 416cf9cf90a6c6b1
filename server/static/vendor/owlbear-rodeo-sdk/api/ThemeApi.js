var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
class ThemeApi {
    constructor(messageBus) {
        this.messageBus = messageBus;
    }
    getTheme() {
        return __awaiter(this, void 0, void 0, function* () {
            const { theme } = yield this.messageBus.sendAsync("OBR_THEME_GET_THEME", {});
            return theme;
        });
    }
    onChange(callback) {
        const handleChange = (data) => {
            callback(data.theme);
        };
        this.messageBus.send("OBR_THEME_SUBSCRIBE", {});
        this.messageBus.on("OBR_THEME_EVENT_CHANGE", handleChange);
        return () => {
            this.messageBus.send("OBR_THEME_UNSUBSCRIBE", {});
            this.messageBus.off("OBR_THEME_EVENT_CHANGE", handleChange);
        };
    }
}
export default ThemeApi;
