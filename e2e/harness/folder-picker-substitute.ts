// No automation can answer Chrome's real folder picker, so tests replace window.showDirectoryPicker with one that
// returns a directory of the origin private file system. It also imitates Chrome's permission life cycle for
// picked folders: granted in the page that picked it, 'prompt' again after a reload until requestPermission
// (the "Restore access" click) grants it. OPFS handles themselves always report 'granted'.
export const PICKED_FOLDER = 'picked-folder';

export const folderPickerSubstitute = `(() => {
  const granted = new Set();
  const keyOf = (handle) => handle.name;
  window.showDirectoryPicker = async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(${JSON.stringify(PICKED_FOLDER)}, { create: true });
    granted.add(keyOf(dir));
    return dir;
  };
  const proto = FileSystemHandle.prototype;
  const isPicked = (handle) => handle.kind === 'directory' && handle.name === ${JSON.stringify(PICKED_FOLDER)};
  const query = proto.queryPermission;
  proto.queryPermission = async function (descriptor) {
    if (isPicked(this)) return granted.has(keyOf(this)) ? 'granted' : 'prompt';
    return query ? query.call(this, descriptor) : 'granted';
  };
  const request = proto.requestPermission;
  proto.requestPermission = async function (descriptor) {
    if (isPicked(this)) { granted.add(keyOf(this)); return 'granted'; }
    return request ? request.call(this, descriptor) : 'granted';
  };
})();`;
