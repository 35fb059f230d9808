package dev.schedlab.hw.importer;

import java.io.IOException;
import java.io.InputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.DocumentType;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * A DOM parser that never reaches outside the document: no external DTD, no external general or
 * parameter entities, no XInclude, no entity expansion into the tree, and secure processing limits
 * against entity bombs. hwloc files carry {@code <!DOCTYPE topology SYSTEM "hwloc2.dtd">}, so a
 * DOCTYPE itself is allowed, but one with an internal subset (where entities are declared) is
 * refused after parsing.
 */
final class SafeXml {

  private SafeXml() {}

  static Document parse(InputStream in, String source) {
    DocumentBuilder builder = newBuilder(source);
    Document document;
    try {
      document = builder.parse(new InputSource(in));
    } catch (SAXParseException e) {
      throw new TopologyImportException(
          source, "malformed XML at line " + e.getLineNumber() + ", column " + e.getColumnNumber()
              + ": " + e.getMessage(), e);
    } catch (SAXException e) {
      throw new TopologyImportException(source, "malformed XML: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new TopologyImportException(source, "cannot read: " + e.getMessage(), e);
    }
    DocumentType doctype = document.getDoctype();
    if (doctype != null
        && ((doctype.getInternalSubset() != null && !doctype.getInternalSubset().isBlank())
            || doctype.getEntities().getLength() > 0)) {
      throw new TopologyImportException(
          source, "DOCTYPE declares an internal subset (entities); refused, only a plain"
              + " <!DOCTYPE topology SYSTEM \"hwloc2.dtd\"> is accepted");
    }
    return document;
  }

  private static DocumentBuilder newBuilder(String source) {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    try {
      factory.setNamespaceAware(false);
      factory.setValidating(false);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setEntityResolver(
          (publicId, systemId) -> {
            throw new SAXException("external entity " + systemId + " refused");
          });
      builder.setErrorHandler(new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) throws SAXException {
          throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
          throw e;
        }
      });
      return builder;
    } catch (ParserConfigurationException | IllegalArgumentException e) {
      throw new TopologyImportException(
          source, "this JDK's XML parser cannot be configured safely: " + e.getMessage(), e);
    }
  }
}
