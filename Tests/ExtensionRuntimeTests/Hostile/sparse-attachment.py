# A notification service attaching a sparse movie of {SIZE} bytes: it stores almost nothing, but a copy would
# write it out whole.
from wire import *
host = connect()
index = notification(host)
path = os.path.join(os.environ["TMPDIR"], "movie.mp4")
with open(path, "wb") as f:
    f.write(bytes([0, 0, 0, 0x18]) + b"ftypmp42")
    f.truncate({SIZE})
fd = os.open(path, os.O_RDONLY)
deliver(host, index, content(attachments=[("movie", "file://" + path, "public.mpeg-4", True)]), [fd])
stay()
