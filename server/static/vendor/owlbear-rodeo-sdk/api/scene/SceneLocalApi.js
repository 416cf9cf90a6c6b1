var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
import { enablePatches, produceWithPatches } from "immer";
enablePatches();
class SceneLocalApi {
    constructor(messageBus) {
        this.messageBus = messageBus;
    }
    getItems(filter) {
        return __awaiter(this, void 0, void 0, function* () {
            if (Array.isArray(filter)) {
                const { items } = yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_GET_ITEMS", { ids: filter });
                return items;
            }
            else if (filter) {
                const { items } = yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_GET_ALL_ITEMS", {});
                return items.filter(filter);
            }
            else {
                const { items } = yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_GET_ALL_ITEMS", {});
                return items;
            }
        });
    }
    isItemArray(value) {
        return (Array.isArray(value) && value.every((item) => typeof item !== "string"));
    }
    updateItems(filterOrItems, update, fastUpdate) {
        return __awaiter(this, void 0, void 0, function* () {
            let items;
            if (this.isItemArray(filterOrItems)) {
                items = filterOrItems;
            }
            else {
                items = yield this.getItems(filterOrItems);
            }
            const [nextState, patches] = produceWithPatches(items, update);
            const nextUpdates = nextState.map((item) => ({
                id: item.id,
                type: item.type,
            }));
            // Use patches to get the partial update keys
            for (const patch of patches) {
                const [index, key] = patch.path;
                if (typeof index === "number" && typeof key === "string") {
                    nextUpdates[index][key] = nextState[index][key];
                }
            }
            // Filter out any update without changes
            const updates = nextUpdates.filter(
            // Ensure that there are updates besides the default ID and type
            (update) => Object.keys(update).length > 2);
            if (updates.length === 0) {
                return;
            }
            yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_UPDATE_ITEMS", {
                updates,
                fastUpdate,
            });
        });
    }
    addItems(items) {
        return __awaiter(this, void 0, void 0, function* () {
            yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_ADD_ITEMS", {
                items,
            });
        });
    }
    deleteItems(ids) {
        return __awaiter(this, void 0, void 0, function* () {
            yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_DELETE_ITEMS", {
                ids,
            });
        });
    }
    getItemAttachments(ids) {
        return __awaiter(this, void 0, void 0, function* () {
            const { items } = yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_GET_ITEM_ATTACHMENTS", { ids });
            return items;
        });
    }
    getItemBounds(ids) {
        return __awaiter(this, void 0, void 0, function* () {
            const { bounds } = yield this.messageBus.sendAsync("OBR_SCENE_LOCAL_GET_ITEM_BOUNDS", { ids });
            return bounds;
        });
    }
    onChange(callback) {
        const handleChange = (data) => {
            callback(data.items);
        };
        this.messageBus.send("OBR_SCENE_LOCAL_SUBSCRIBE", {});
        this.messageBus.on("OBR_SCENE_LOCAL_EVENT_CHANGE", handleChange);
        return () => {
            this.messageBus.send("OBR_SCENE_LOCAL_UNSUBSCRIBE", {});
            this.messageBus.off("OBR_SCENE_LOCAL_EVENT_CHANGE", handleChange);
        };
    }
}
export default SceneLocalApi;
