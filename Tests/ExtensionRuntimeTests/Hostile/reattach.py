# Two notifications: the first gets a JPEG attachment, moved into the data store {STORE}; the second names
# that stored file {COUNT} times, with no descriptor, as an attachment of a notification shown names it.
from wire import *
host = connect()
index = notification(host)
path = os.path.join(os.environ["TMPDIR"], "photo.jpg")
with open(path, "wb") as f:
    f.write(bytes([0xFF, 0xD8, 0xFF, 0xE0]) + os.urandom({SIZE}))
fd = os.open(path, os.O_RDONLY)
deliver(host, index, content(attachments=[("photo", "file://" + path, "public.jpeg", True)]), [fd])
index = notification(host)
stored = [name for name in os.listdir("{STORE}")]
url = "file://{STORE}/" + stored[0]
deliver(host, index, content(attachments=[("again-%d" % n, url, "public.jpeg", False) for n in range({COUNT})]))
stay()
