"""The page's title said once (templates/page.html): the `page_title` block a page fills is the
window's title, and `{% page_title %}` says it again as the page's heading."""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.template.loader_tags import BLOCK_CONTEXT_KEY
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def page_title(context: Context) -> SafeString:
    """The `page_title` block as the page being rendered fills it (empty when it does not)."""
    block = context.render_context[BLOCK_CONTEXT_KEY].get_block("page_title")
    return SafeString(block.nodelist.render(context) if block is not None else "")
