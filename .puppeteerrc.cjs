// pa11y brings puppeteer: never download a browser (offline machines, CI); the bench points it at /usr/bin/chromium.
module.exports = { skipDownload: true };
