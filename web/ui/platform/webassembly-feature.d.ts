declare module 'webassembly-feature' {
  const supports: Record<'JS-BigInt-integration' | 'multi-value' | 'mutable-global' | 'simd', () => boolean>;
  export default supports;
}
