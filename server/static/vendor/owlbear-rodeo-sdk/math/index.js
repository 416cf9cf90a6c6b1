export * from "./Math2";
export * from "./MathM";
