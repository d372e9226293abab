"""Crawl a site with Scrapy, as bench/peers/colly crawls it with colly.

bench/harness's S9 runs it beside the crawl command when Debian's
python3-scrapy is installed (it is skipped, with a line saying so, when
it is not): from the roots, following <a href> on the roots' hosts,
robots.txt obeyed, at most --per_host requests in flight per host.

    python3 scrapy_crawl.py --per_host 8 http://127.0.0.1:8080/ ...

Scrapy counts its per-host limit by host name, without the port: on the
demo site, whose hosts are one address on several ports, every host
shares one limit. It prints one JSON line: the pages it fetched.
"""

import argparse
import json
import logging
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor


class Site(scrapy.Spider):
    name = "site"

    def __init__(self, roots, counts, **kw):
        super().__init__(**kw)
        self.start_urls = roots
        self.counts = counts
        hosts = {urlsplit(r).netloc for r in roots}
        self.links = LinkExtractor(tags=("a",), attrs=("href",), unique=True)
        self.in_scope = lambda u: urlsplit(u).netloc in hosts

    def parse(self, response):
        self.counts["pages"] += 1
        if not isinstance(response, scrapy.http.HtmlResponse):
            return
        for link in self.links.extract_links(response):
            if self.in_scope(link.url):
                yield scrapy.Request(link.url, callback=self.parse)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per_host", type=int, default=8)
    ap.add_argument("roots", nargs="+")
    args = ap.parse_args()
    counts = {"pages": 0}
    logging.getLogger("scrapy").setLevel(logging.WARNING)
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": 100,
        "CONCURRENT_REQUESTS_PER_DOMAIN": args.per_host,
        "DOWNLOAD_DELAY": 0,
        "RETRY_TIMES": 3,
        "HTTPERROR_ALLOW_ALL": True,  # a 404 is a page fetched, as the crawl command counts it
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    })
    process.crawl(Site, roots=args.roots, counts=counts)
    process.start()
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
