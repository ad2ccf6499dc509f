"""``{% fragment "name" %}…{% endfragment %}``: a piece of a page rendered once per campaign
version, role and user (``referee.play.fragments`` says how the key keeps it right). A name
that is empty (a variable the view did not set) renders the piece afresh, uncached."""

from django import template

from referee.play import fragments

register = template.Library()


class FragmentNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name: template.base.FilterExpression):
        self.nodelist = nodelist
        self.name = name

    def render(self, context) -> str:
        name = self.name.resolve(context)
        key = fragments.key_for(context, str(name)) if name else None
        if key is None:
            return self.nodelist.render(context)
        html = fragments.get(key)
        if html is None:
            with context.push(csrf_token=fragments.CSRF_PLACEHOLDER):
                html = str(self.nodelist.render(context))
            fragments.put(key, html)
        return fragments.with_csrf(html, context)


@register.tag("fragment")
def fragment(parser, token) -> FragmentNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError('{% fragment "name" %} takes the fragment\'s name')
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(nodelist, parser.compile_filter(bits[1]))
