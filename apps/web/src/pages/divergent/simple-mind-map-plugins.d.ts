// simple-mind-map ships its plugins as plain ES modules without typings; the page uses them only through usePlugin().
declare module 'simple-mind-map/src/plugins/Export.js' {
  const plugin: unknown;
  export default plugin;
}
declare module 'simple-mind-map/src/plugins/Drag.js' {
  const plugin: unknown;
  export default plugin;
}
